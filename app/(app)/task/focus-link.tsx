"use client";

import Link from "next/link";
import { type ReactNode, useEffect, useRef } from "react";

/** A link that takes the keyboard focus when it appears (the next step after a result), so Enter follows it. */
export function FocusLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <Link ref={ref} href={href} className={className}>
      {children}
    </Link>
  );
}
