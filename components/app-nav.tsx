import Link from "next/link";
import { signOut } from "@/lib/actions/auth";
import type { CurrentUser } from "@/lib/auth/current-user";
import { NavLinks } from "./nav-links";

export function AppNav({ user }: { user: CurrentUser | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex min-h-14 max-w-7xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-2 sm:px-6">
        <Link href="/events" className="flex items-center gap-2 font-semibold text-slate-900">
          <span aria-hidden className="inline-block h-6 w-6 rounded bg-accent-600 text-center text-sm leading-6 text-white">
            A
          </span>
          Accord
        </Link>
        {user ? <NavLinks role={user.role} /> : null}
        <div className="ml-auto flex items-center gap-2 text-sm sm:gap-3">
          {user ? (
            <>
              <Link href="/account" className="rounded px-1 text-slate-600 hover:bg-slate-100" data-testid="current-user" title="Your account">
                {user.name} <span className="hidden text-slate-500 sm:inline">· {user.role}</span>
              </Link>
              <form action={signOut}>
                <button type="submit" className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100">
                  Sign out
                </button>
              </form>
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
