import { createHash } from "node:crypto";

/**
 * The idempotency token for an Accord entity, ≤ 64 characters (MTurk's UniqueRequestToken limit), deterministic so
 * that a retried or resumed call sends the same token: `accord-hit:<id>` when that fits (readable in logs),
 * otherwise `accord-hit:sha256:<hex>` truncated to 64.
 * MTurk remembers tokens for 24 hours; persist the provider's id as soon as the call returns.
 */
export function deriveUniqueRequestToken(accordId: string, purpose = "accord-hit"): string {
  if (accordId === "") throw new RangeError("An idempotency token needs a non-empty id");
  const plain = `${purpose}:${accordId}`;
  if (plain.length <= 64 && /^[\x21-\x7e]+$/.test(plain)) return plain;
  const prefix = `${purpose}:sha256:`;
  return prefix + createHash("sha256").update(accordId).digest("hex").slice(0, Math.max(16, 64 - prefix.length));
}
