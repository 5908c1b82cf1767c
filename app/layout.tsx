import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Accord", template: "%s · Accord" },
  description: "Crowdsourced text annotation with gold-standard quality control",
  // public/favicon.ico (16, 32, 48 px; scripts/make-favicon.mjs) for every browser, public/icon.svg where SVG icons work.
  icons: { icon: [{ url: "/favicon.ico", sizes: "any" }, { url: "/icon.svg", type: "image/svg+xml" }] },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
