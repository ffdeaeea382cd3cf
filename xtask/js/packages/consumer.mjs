// A user's Node program importing the installed package by name (cargo xtask test-packages).
import { Counter, shout, withPool } from "kitchen-sink";

const c = new Counter(41, "pkg");
const count = withPool(() => c.add(1));
console.log(JSON.stringify({ count, name: c.name, shout: shout("hi") }));
