import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueDeviceCookie, knownDeviceId } from "./known-device";

describe("known-device cookie", () => {
  const key = randomBytes(32);
  it("names its device for the user it was issued to, and nobody else", () => {
    const cookie = issueDeviceCookie(key, "user-1", "device-abcdef123");
    expect(knownDeviceId(key, cookie, "user-1")).toBe("device-abcdef123");
    expect(knownDeviceId(key, cookie, "user-2")).toBeNull();
    expect(knownDeviceId(randomBytes(32), cookie, "user-1")).toBeNull();
  });
  it("refuses a forged or altered cookie", () => {
    const cookie = issueDeviceCookie(key, "user-1");
    const [u, d, m] = cookie.split(".");
    expect(knownDeviceId(key, `${u}.${d}x.${m}`, "user-1")).toBeNull();
    expect(knownDeviceId(key, `${u}.${d}.${m.slice(0, -2)}`, "user-1")).toBeNull();
    expect(knownDeviceId(key, undefined, "user-1")).toBeNull();
    expect(knownDeviceId(key, "garbage", "user-1")).toBeNull();
  });
});
