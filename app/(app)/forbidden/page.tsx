import { requirePageUser } from "@/lib/auth/current-user";
import { EmptyState } from "@/components/ui/card";

export default async function ForbiddenPage() {
  const user = await requirePageUser("view");
  return (
    <EmptyState title="Your role does not allow this page.">
      You are signed in as {user.email} ({user.role}). Ask an admin if you need more access.
    </EmptyState>
  );
}
