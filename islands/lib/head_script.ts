import { STORAGE } from "./storage.ts";
import { PAGE_DENIED_REDIRECT } from "../../contract/roles.ts";
import { PAGE_DENIED_FLASH } from "./theme.ts";

// Apart from theme.ts, whose functions the pages bundle: this text is the server's only (inlined
// in <head>, hashed for the CSP); in theme.ts it went into every page's JavaScript (issue 33).
/**
 * Runs in <head> before the first paint (inlined by the server): applies the stored or system
 * theme, then sends a visitor without a stored token away from a private page and a visitor with
 * one away from a public page (seeds/002 section 2.1 'Guard rules'), and a signed-in user away
 * from a page none of their stored roles may open (`data-roles`, the page's line of PAGE_ACTIONS;
 * issue 24 item 9), before anything renders. Then, once the page has loaded, it registers the
 * service worker (/sw.js, issue 42: offline page and pushes), so that no bundle carries it.
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
var w=navigator.serviceWorker;if(w){window.addEventListener("load",function(){w.register("/sw.js").catch(function(){});});}
}catch(e){}})();`;
