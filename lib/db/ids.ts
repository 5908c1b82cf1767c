import { randomBytes } from "node:crypto";

/** Ids for rows written in bulk (the schema's cuid() default is applied by Prisma, not by the database). */
const fingerprint = parseInt(randomBytes(4).toString("hex"), 16).toString(36).padStart(4, "0").slice(-4);
let counter = Math.floor(Math.random() * 1_679_616);

/** Random bytes drawn 4 KB at a time: one randomBytes() call per id was a measurable syscall cost in bulk writes. */
let pool = Buffer.alloc(0);
let poolAt = 0;
function random32(): number {
  if (poolAt + 4 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const v = pool.readUInt32BE(poolAt);
  poolAt += 4;
  return v;
}

/** A collision-resistant id in the style of cuid (c + time + counter + host fingerprint + random). */
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  const random = random32().toString(36).padStart(6, "0").slice(-6);
  return `c${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${fingerprint}${random}`;
}
