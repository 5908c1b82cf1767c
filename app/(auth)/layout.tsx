import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="mx-auto mb-2 h-10 w-10 rounded-lg bg-accent-600 text-center text-xl font-semibold leading-10 text-white">A</div>
          <h1 className="text-lg font-semibold">Accord</h1>
          <p className="text-sm text-slate-500">Crowdsourced annotation with gold-standard quality control</p>
        </div>
        {children}
      </div>
    </main>
  );
}
