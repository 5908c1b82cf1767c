import { describe, expect, it } from "vitest";
import { clientAddress, LOCAL_ADDRESS, trustedProxyCount } from "./client-address";

const PEER = "x-accord-peer-test";
const headers = (h: Record<string, string>) => new Headers(h);

describe("clientAddress", () => {
  it("ignores X-Forwarded-For without the trusted-proxy setting: the TCP peer counts", () => {
    const env = { ACCORD_PEER_HEADER: PEER };
    for (const forged of ["203.0.113.1", "203.0.113.2", "198.51.100.7, 203.0.113.3"]) {
      expect(clientAddress(headers({ [PEER]: "192.0.2.10", "x-forwarded-for": forged }), env)).toBe("192.0.2.10");
    }
    expect(clientAddress(headers({ [PEER]: "::ffff:192.0.2.10" }), env)).toBe("192.0.2.10");
  });

  it("without a peer known (not Accord's server) every client is one address, whatever it forwards", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.1" }), {})).toBe(LOCAL_ADDRESS);
    // The peer header's name is a secret of the running server: a guessed name is ignored.
    expect(clientAddress(headers({ "x-accord-peer": "203.0.113.1" }), {})).toBe(LOCAL_ADDRESS);
  });

  it("with one trusted proxy: the address the proxy saw, not what the client claimed before it", () => {
    const env = { ACCORD_PEER_HEADER: PEER, ACCORD_TRUST_PROXY: "1" };
    // The proxy (10.0.0.2) appends the client's real address (198.51.100.20) to a forged list.
    const h = headers({ [PEER]: "10.0.0.2", "x-forwarded-for": "203.0.113.66, 198.51.100.20" });
    expect(clientAddress(h, env)).toBe("198.51.100.20");
    expect(clientAddress(headers({ [PEER]: "10.0.0.2", "x-forwarded-for": "198.51.100.21" }), env)).toBe("198.51.100.21");
    // No header at all: the peer.
    expect(clientAddress(headers({ [PEER]: "10.0.0.2" }), env)).toBe("10.0.0.2");
    // Without Accord's peer header (plain `next start`), the last entry is the proxy's.
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.66, 198.51.100.20" }), { ACCORD_TRUST_PROXY: "1" })).toBe("198.51.100.20");
  });

  it("with two trusted proxies: two places from the right", () => {
    const env = { ACCORD_PEER_HEADER: PEER, ACCORD_TRUST_PROXY: "2" };
    const h = headers({ [PEER]: "10.0.0.3", "x-forwarded-for": "203.0.113.66, 198.51.100.20, 10.0.0.2" });
    expect(clientAddress(h, env)).toBe("198.51.100.20");
  });

  it("a forwarded entry that is not an address falls back to the peer", () => {
    const env = { ACCORD_PEER_HEADER: PEER, ACCORD_TRUST_PROXY: "1" };
    expect(clientAddress(headers({ [PEER]: "10.0.0.2", "x-forwarded-for": "evil" }), env)).toBe("10.0.0.2");
  });
});

describe("trustedProxyCount", () => {
  it("reads off, 0 and small numbers; refuses anything else naming the variable", () => {
    expect(trustedProxyCount({})).toBe(0);
    expect(trustedProxyCount({ ACCORD_TRUST_PROXY: "off" })).toBe(0);
    expect(trustedProxyCount({ ACCORD_TRUST_PROXY: "0" })).toBe(0);
    expect(trustedProxyCount({ ACCORD_TRUST_PROXY: " 2 " })).toBe(2);
    expect(() => trustedProxyCount({ ACCORD_TRUST_PROXY: "true" })).toThrow(/ACCORD_TRUST_PROXY/);
    expect(() => trustedProxyCount({ ACCORD_TRUST_PROXY: "11" })).toThrow(/ACCORD_TRUST_PROXY/);
    expect(() => trustedProxyCount({ ACCORD_TRUST_PROXY: "-1" })).toThrow(/ACCORD_TRUST_PROXY/);
  });
});
