import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A browser that once signed in to an account gets a signed, long-lived cookie naming (account, device). Failed
 * sign-ins elsewhere never lock that browser out: its attempts are throttled on their own key (lib/auth/throttle.ts).
 * The cookie grants no access by itself; it is only a throttling hint that cannot be forged without the secret.
 */
export const DEVICE_COOKIE = "accord_device";
export const DEVICE_TTL_S = 180 * 24 * 60 * 60;

function mac(key: Buffer, userId: string, deviceId: string): Buffer {
  return createHmac("sha256", key).update(`${userId}.${deviceId}`).digest();
}

export function issueDeviceCookie(key: Buffer, userId: string, deviceId = randomBytes(16).toString("base64url")): string {
  return `${userId}.${deviceId}.${mac(key, userId, deviceId).toString("base64url")}`;
}

/** The device id when the cookie is genuine and was issued for this user; otherwise null. */
export function knownDeviceId(key: Buffer, cookie: string | undefined, userId: string): string | null {
  const parts = cookie?.split(".");
  if (!parts || parts.length !== 3 || parts[0] !== userId || !/^[A-Za-z0-9_-]{10,64}$/.test(parts[1])) return null;
  const given = Buffer.from(parts[2], "base64url");
  const want = mac(key, userId, parts[1]);
  return given.length === want.length && timingSafeEqual(given, want) ? parts[1] : null;
}
