import { readStorage, STORAGE, writeStorage } from "./storage.ts";
import { PAGE_DENIED_REDIRECT } from "../../contract/roles.ts";

/** sessionStorage key: the page this tab came from was denied (the shell then says so). */
export const PAGE_DENIED_FLASH = "pageDenied";

/**
 * Light and dark themes (seeds/002 section 2.11): the choice is stored as preferredTheme; with no
 * choice the system's preference applies, and follows it when it changes. The colours are CSS
 * variables in styles/theme.css, switched by `<html data-theme="dark|light">`.
 */
export type Theme = "light" | "dark";

export function systemTheme(): Theme {
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function storedTheme(): Theme | null {
  const value = readStorage(STORAGE.preferredTheme);
  return value === "dark" || value === "light" ? value : null;
}

export function currentTheme(): Theme {
  const applied = document.documentElement.dataset.theme;
  return applied === "dark" || applied === "light" ? applied : storedTheme() ?? systemTheme();
}

export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}

/** Applies and remembers a choice. */
export function setTheme(theme: Theme) {
  writeStorage(STORAGE.preferredTheme, theme);
  applyTheme(theme);
}

/** While the user has made no choice, follow the system when it switches. Returns a stop function. */
export function followSystemTheme(onChange: (theme: Theme) => void): () => void {
  const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  if (!query) return () => {};
  const listener = () => {
    if (storedTheme()) return;
    applyTheme(systemTheme());
    onChange(systemTheme());
  };
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/**
 * Runs in <head> before the first paint (inlined by the server): applies the stored or system
 * theme, then sends a visitor without a stored token away from a private page and a visitor with
 * one away from a public page (seeds/002 section 2.1 'Guard rules'), and a signed-in user away
 * from a page none of their stored roles may open (`data-roles`, the page's line of PAGE_ACTIONS;
 * issue 24 item 9), before anything renders.
 * Plain ES5 on purpose: it is not bundled.
 */
export const HEAD_SCRIPT = `(function(){try{
var d=document.documentElement,s=window.localStorage,t=s.getItem("${STORAGE.preferredTheme}");
if(t!=="dark"&&t!=="light"){t=window.matchMedia&&window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";}
d.setAttribute("data-theme",t);d.style.colorScheme=t;
var a=d.getAttribute("data-access"),k=s.getItem("${STORAGE.token}");
if(a==="private"&&!k){window.location.replace("/login");}
else if(a==="public"&&k){window.location.replace("/");}
else if(a==="private"&&d.hasAttribute("data-roles")){var r=" "+d.getAttribute("data-roles")+" ",m=(s.getItem("${STORAGE.roles}")||"").split(" "),ok=!m[0];
for(var i=0;i<m.length;i++){if(m[i]&&r.indexOf(" "+m[i]+" ")>=0){ok=true;}}
if(!ok){window.sessionStorage.setItem("${PAGE_DENIED_FLASH}","1");window.location.replace("${PAGE_DENIED_REDIRECT}");}}
}catch(e){}})();`;
