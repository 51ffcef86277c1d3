import type { ReactNode } from "react";
import { LanguageMenu, ThemeToggle } from "./Preferences.tsx";

/**
 * The signed-out pages' frame (/login, /resetpassword): theme and language at the top, the card
 * with the brand, a title and a subtitle, then the page's own content. Styles: styles/auth.css.
 */
export function AuthCard(props: { title: string; subtitle: string; children: ReactNode }) {
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
        <h1 className="auth-title">{props.title}</h1>
        <p className="auth-subtitle">{props.subtitle}</p>
        {props.children}
      </main>
    </div>
  );
}
