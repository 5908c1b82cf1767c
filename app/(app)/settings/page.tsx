import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { ROLE_DESCRIPTIONS, ROLES } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { CreateUserForm, UserRowActions } from "./user-forms";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const me = await requirePageUser("admin");
  const users = await getDb().user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, role: true, disabled: true, createdAt: true },
  });
  return (
    <>
      <PageHeader title="Settings" description="Accounts and roles, the crowd provider and its credentials, budget and rule defaults." />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Users and roles" description="Who can sign in, and what each may do." className="lg:col-span-2">
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1.5">Name</th>
                <th className="py-1.5">Email</th>
                <th className="py-1.5">Role</th>
                <th className="py-1.5" />
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className="border-t border-slate-100">
                  <td className="py-2">{u.name}</td>
                  <td className="py-2">{u.email}</td>
                  <td className="py-2">
                    <Badge tone={u.role === "admin" ? "blue" : "slate"}>{u.role}</Badge> {u.disabled ? <Badge tone="red">disabled</Badge> : null}
                  </td>
                  <td className="py-2 text-right">{u.id === me.id ? <span className="text-xs text-slate-400">you</span> : <UserRowActions userId={u.id} role={u.role} disabled={u.disabled} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-4 grid grid-cols-2 gap-2 text-xs text-slate-500">
            {ROLES.map((r) => (
              <div key={r}>
                <dt className="inline font-medium text-slate-700">{r}</dt>: <dd className="inline">{ROLE_DESCRIPTIONS[r]}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Add a user">
          <CreateUserForm />
        </Card>
      </div>
    </>
  );
}
