import { hash, verify } from "@node-rs/argon2";

// Argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum recommendation).
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the user does not exist, so timing does not reveal which emails exist. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash("accord-dummy-password-for-timing");
  return dummyHash;
}
