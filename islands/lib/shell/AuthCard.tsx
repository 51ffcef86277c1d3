import type { ReactNode } from "react";
import { LanguageMenu, ThemeToggle } from "./Preferences.tsx";

/**
 * The frame of the public pages (/login, /signup, /resetpassword): theme and language at the top, the brand,
 * a title and subtitle, then the page's form (styles: lib/styles/auth.css).
 */
export function AuthCard(
  { title, subtitle, children }: { title: string; subtitle: string; children: ReactNode },
) {
  return (
    <div className="auth">
      <div className="auth-tools">
        <ThemeToggle />
        <LanguageMenu />
      </div>
      <main className="auth-card card">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true">B</span>
          <span className="auth-brand-name">Balcão</span>
        </div>
        <h1 className="auth-title">{title}</h1>
        <p className="auth-subtitle">{subtitle}</p>
        {children}
      </main>
    </div>
  );
}
