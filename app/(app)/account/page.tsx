import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { Card, PageHeader } from "@/components/ui/card";
import { ChangePasswordForm } from "./change-password-form";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const me = await requirePageUser("account");
  return (
    <>
      <PageHeader title="Your account" description={`${me.name} · ${me.email} · ${me.role}`} />
      <div className="max-w-md">
        <Card title="Change password">
          <ChangePasswordForm />
        </Card>
      </div>
    </>
  );
}
