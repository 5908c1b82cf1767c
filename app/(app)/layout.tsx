import type { ReactNode } from "react";
import { getCurrentUser } from "@/lib/auth/current-user";
import { AppNav } from "@/components/app-nav";

// The signed-in shell. Each page still checks the user itself (layouts are not a guard).
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await getCurrentUser();
  return (
    <div className="flex min-h-screen flex-col">
      <AppNav user={user} />
      <main className="mx-auto w-full min-w-0 max-w-7xl flex-1 px-4 py-6 sm:px-6">{children}</main>
      <footer className="border-t border-slate-200 bg-white px-4 py-3 text-xs text-slate-600 sm:px-6">
        Accord runs the HumAID annotation procedure (Alam et al., ICWSM 2021): a qualification test, HITs of gold and unknown
        tweets, approval by the gold answers, labels accepted by agreement and HITs approved by their agreed tweets, each rule
        set per event.
      </footer>
    </div>
  );
}
