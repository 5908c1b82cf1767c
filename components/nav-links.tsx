"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/events", label: "Events", roles: ["admin", "researcher", "viewer"] },
  { href: "/workers", label: "Workers", roles: ["admin", "researcher", "viewer"] },
  { href: "/models", label: "Models", roles: ["admin", "researcher", "viewer"] },
  { href: "/settings", label: "Settings", roles: ["admin"] },
  { href: "/task", label: "Task", roles: ["annotator", "admin"] },
];

export function NavLinks({ role }: { role: string }) {
  const pathname = usePathname();
  return (
    <nav className="order-last -mx-1 flex w-full flex-wrap gap-x-0.5 gap-y-1 text-sm sm:order-none sm:mx-0 sm:w-auto sm:gap-1" aria-label="Main">
      {LINKS.filter((l) => l.roles.includes(role)).map((l) => {
        const active = pathname === l.href || pathname.startsWith(`${l.href}/`);
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-2 py-1.5 font-medium sm:px-3 ${active ? "bg-accent-50 text-accent-700" : "text-slate-600 hover:bg-slate-100"}`}
          >
            {l.label}
          </Link>
        );
      })}
    </nav>
  );
}
