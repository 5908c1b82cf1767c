import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AuthError, UserError } from "@/lib/errors";

const current = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/lib/auth/current-user", () => ({
  getCurrentUser: async () => current.user,
  requireActionUser: async (access: string) => {
    if (!current.user) throw new AuthError("Your session has ended. Please sign in again.");
    if (access === "admin" && current.user.role !== "admin") throw new AuthError("Your role does not allow this action.", "forbidden");
    return current.user;
  },
}));

const { formAction, submitAction } = await import("./define-action");

const schema = z.object({ name: z.string().min(2, "Too short."), password: z.string().optional() });

function form(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

describe("formAction", () => {
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    current.user = { id: "u1", email: "a@example.org", name: "A", role: "researcher" };
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => errors.mockRestore());

  it("refuses the signed-out and a role that falls short before reading the form", async () => {
    const run = vi.fn(async () => ({ ok: true }));
    current.user = null;
    expect(await formAction({ access: "edit", input: schema }, run)({ ok: false }, form({ name: "ok" }))).toMatchObject({ ok: false, message: /sign in/ });
    current.user = { id: "u1", email: "a@example.org", name: "A", role: "researcher" };
    expect(await formAction({ access: "admin", input: schema }, run)({ ok: false }, form({ name: "ok" }))).toMatchObject({ ok: false, message: /role does not allow/ });
    expect(run).not.toHaveBeenCalled();
  });

  it("hands the parsed input and the user to the action", async () => {
    const action = formAction({ access: "edit", input: schema }, async ({ user, input }) => ({ ok: true, message: `${user.id}:${input.name}` }));
    expect(await action({ ok: false }, form({ name: "Maria" }))).toEqual({ ok: true, message: "u1:Maria" });
  });

  it("returns zod's field errors with the typed values, never the password", async () => {
    const action = formAction({ access: "edit", input: schema }, async () => ({ ok: true }));
    const state = await action({ ok: false }, form({ name: "M", password: "hunter2hunter2" }));
    expect(state).toMatchObject({ ok: false, fieldErrors: { name: ["Too short."] }, values: { name: "M" } });
    expect(state.values).not.toHaveProperty("password");
  });

  it("shows a UserError's message and field errors as they are", async () => {
    const action = formAction({ access: "edit", input: schema }, async () => {
      throw new UserError("That name is taken.", "exists", { name: ["Taken."] });
    });
    expect(await action({ ok: false }, form({ name: "Maria" }))).toEqual({ ok: false, message: "That name is taken.", fieldErrors: { name: ["Taken."] }, values: { name: "Maria" } });
    expect(errors).not.toHaveBeenCalled();
  });

  it("logs anything else under a reference id and shows one generic sentence naming it", async () => {
    const action = formAction({ access: "edit", input: schema, echo: false }, async () => {
      throw new Error("SQLITE_BUSY: database is locked");
    });
    const state = await action({ ok: false }, form({ name: "Maria" }));
    const reference = /logged as ([0-9a-f]{8})/.exec(state.message ?? "")?.[1];
    expect(state).toMatchObject({ ok: false, values: undefined });
    expect(reference).toBeDefined();
    expect(state.message).not.toMatch(/SQLITE/);
    expect(String(errors.mock.calls[0][0])).toContain(reference);
  });

  it("lets redirect() and notFound() through", async () => {
    const signal = Object.assign(new Error("NEXT_REDIRECT"), { digest: "NEXT_REDIRECT;replace;/events;307;" });
    const action = formAction({ access: "edit", input: schema }, async () => {
      throw signal;
    });
    await expect(action({ ok: false }, form({ name: "Maria" }))).rejects.toBe(signal);
  });

  it("public actions run signed out with a null user", async () => {
    current.user = null;
    const seen: unknown[] = [];
    await submitAction({ access: "public", input: z.object({}) }, async ({ user }) => {
      seen.push(user);
    })(new FormData());
    expect(seen).toEqual([null]);
  });
});
