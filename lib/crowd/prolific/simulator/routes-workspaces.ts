import { z } from "zod";
import { isId, parse } from "./request";
import { simFee, simVat, SIM_FEE_BASIS_POINTS, SIM_VAT_BASIS_POINTS } from "./money";
import { page, type SimRequest, type SimResponse } from "./routes";
import type { ProlificSimService } from "./service";
import { notFound } from "./sim-error";
import { nextId, type SimProject, type SimWorkspace } from "./state";

/** Workspaces and projects ([2+] hierarchy): the primary pair Accord uses, plus any created through the API. */



const naivety = z.number().min(0).max(1).nullish();

/** Every workspace as one shape; the primary one holds the wallet. */
function workspaces(service: ProlificSimService): SimWorkspace[] {
  const w = service.state.workspace;
  return [{ id: w.id, title: w.title, description: w.description ?? "", currency_code: w.currency_code, naivety_distribution_rate: w.naivety_distribution_rate ?? null }, ...Object.values(service.state.workspaces ?? {})];
}

function projects(service: ProlificSimService): SimProject[] {
  const p = service.state.project;
  return [{ id: p.id, title: p.title, description: p.description ?? "", workspace: service.state.workspace.id, naivety_distribution_rate: p.naivety_distribution_rate ?? null }, ...Object.values(service.state.projects ?? {})];
}

function workspaceView(service: ProlificSimService, w: SimWorkspace) {
  const user = service.state.user;
  return {
    ...w,
    owner: user.id,
    users: [{ id: user.id, name: "Accord Researcher", email: user.email, roles: ["WORKSPACE_ADMIN"] }],
    projects: projects(service).filter((p) => p.workspace === w.id).map((p) => ({ id: p.id })),
    wallet: `${w.id.slice(0, 16)}77a11e70`,
  };
}

function projectView(service: ProlificSimService, p: SimProject) {
  const user = service.state.user;
  return { ...p, owner: user.id, users: [{ id: user.id, name: "Accord Researcher", email: user.email, roles: ["PROJECT_EDITOR"] }] };
}

/**
 * The balance in minor units; the breakdowns split an amount into what it buys in rewards and what goes to fees and
 * VAT at the simulator's rates (Prolific documents the field names, not how it splits them).
 */
function breakdown(amount: number) {
  const rewards = Math.floor((amount * 10_000 * 10_000) / (10_000 * 10_000 + SIM_FEE_BASIS_POINTS * (10_000 + SIM_VAT_BASIS_POINTS)));
  const fees = simFee(rewards);
  const vat = simVat(fees);
  return { rewards: amount - fees - vat, fees, vat };
}

export function routeWorkspaces(service: ProlificSimService, req: SimRequest, key: string, body: Record<string, unknown>): SimResponse | null {
  const state = service.state;
  const id = req.path.find(isId);
  const workspace = () => {
    const w = workspaces(service).find((x) => x.id === id);
    if (!w) throw notFound("Workspace");
    return w;
  };
  switch (key) {
    case "GET workspaces":
      return { status: 200, body: page(req, workspaces(service).map((w) => workspaceView(service, w))) };
    case "POST workspaces": {
      const input = parse(z.object({ title: z.string().min(1).max(255), description: z.string().nullish(), naivety_distribution_rate: naivety }), body);
      const w: SimWorkspace = { id: nextId(state), title: input.title, description: input.description ?? "", currency_code: state.workspace.currency_code, naivety_distribution_rate: input.naivety_distribution_rate ?? null };
      (state.workspaces ??= {})[w.id] = w;
      service.changed();
      return { status: 201, body: workspaceView(service, w) };
    }
    case "GET workspaces/:id":
      return { status: 200, body: workspaceView(service, workspace()) };
    case "PATCH workspaces/:id": {
      const w = workspace();
      const input = parse(z.object({ title: z.string().min(1).max(255).optional(), description: z.string().nullish(), naivety_distribution_rate: naivety }), body);
      const target = w.id === state.workspace.id ? state.workspace : state.workspaces![w.id]!;
      if (input.title !== undefined) target.title = input.title;
      if (input.description !== undefined) target.description = input.description ?? "";
      if (input.naivety_distribution_rate !== undefined) target.naivety_distribution_rate = input.naivety_distribution_rate;
      service.changed();
      return { status: 200, body: workspaceView(service, workspace()) };
    }
    case "GET workspaces/:id/balance": {
      const w = workspace();
      const primary = w.id === state.workspace.id;
      const total = primary ? state.workspace.balance : 0;
      const available = primary ? service.availableBalance() : 0;
      return { status: 200, body: { currency_code: w.currency_code, total_balance: total, balance_breakdown: breakdown(total), available_balance: available, available_balance_breakdown: breakdown(available) } };
    }
    case "GET workspaces/:id/projects": {
      const w = workspace();
      return { status: 200, body: page(req, projects(service).filter((p) => p.workspace === w.id).map((p) => projectView(service, p))) };
    }
    case "POST workspaces/:id/projects": {
      const w = workspace();
      const input = parse(z.object({ title: z.string().min(1).max(255), description: z.string().nullish(), naivety_distribution_rate: naivety }), body);
      const p: SimProject = { id: nextId(state), title: input.title, description: input.description ?? "", workspace: w.id, naivety_distribution_rate: input.naivety_distribution_rate ?? null };
      (state.projects ??= {})[p.id] = p;
      service.changed();
      return { status: 201, body: projectView(service, p) };
    }
    case "GET projects/:id": {
      const p = projects(service).find((x) => x.id === id);
      if (!p) throw notFound("Project");
      return { status: 200, body: projectView(service, p) };
    }
    default:
      return null;
  }
}
