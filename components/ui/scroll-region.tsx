import type { ReactNode } from "react";

/** A box that scrolls sideways when its content is wider than the screen; focusable so keyboard users can scroll it. */
export function ScrollRegion({ label, children, className = "" }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div tabIndex={0} role="region" aria-label={label} className={`overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-accent-500 ${className}`}>
      {children}
    </div>
  );
}
