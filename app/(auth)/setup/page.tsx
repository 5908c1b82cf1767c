import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { hasUsers } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { SetupForm } from "./setup-form";

export const metadata: Metadata = { title: "Set up" };

// Public only while Accord has no account at all; afterwards it sends people to sign in.
export default async function SetupPage() {
  await connection(); // rendered per request: whether an account exists changes
  if (await hasUsers(getDb())) redirect("/signin");
  return <SetupForm />;
}
