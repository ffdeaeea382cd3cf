// A CommonJS program requiring the installed package (an ES module) by name: Node 20.19+
// and Bun load ES modules with require() (cargo xtask test-runtimes). Prints what
// consumer.mjs prints.
const { Counter, shout, withPool } = require("kitchen-sink");

const c = new Counter(41, "pkg");
const count = withPool(() => c.add(1));
console.log(JSON.stringify({ count, name: c.name, shout: shout("hi") }));
