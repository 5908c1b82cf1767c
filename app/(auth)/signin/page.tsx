import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/current-user";
import { hasUsers } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await getCurrentUser()) redirect("/events");
  if (!(await hasUsers(getDb()))) redirect("/setup");
  const { next } = await searchParams;
  return <SignInForm next={next} />;
}
