// A user's TypeScript importing the installed package by name: its types resolve
// through package.json (cargo xtask test-packages runs tsc --strict on this).
import { Counter, shout, type ReleasePool, pushPool } from "kitchen-sink";

const c: Counter = new Counter(41, "ts");
const n: number = c.add(1);
const s: string = shout("hi");
const pool: ReleasePool = pushPool();
pool.pop();
// @ts-expect-error the constructor takes (number, string)
new Counter("41");

export { n, s };
