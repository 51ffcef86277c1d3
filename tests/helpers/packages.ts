/**
 * The packages only tests use, pinned here and resolved through tests/deno.lock, so that the
 * app's import map (deno.json) and lockfile hold only what the app imports: `deno task start`
 * never downloads a browser or a test parser.
 */
export { chromium } from "npm:playwright-core@1.65.1";
export type { Browser, BrowserContext, Page } from "npm:playwright-core@1.65.1";
export { default as sparticuz } from "npm:@sparticuz/chromium@153.0.0";
export { default as SwaggerParser } from "npm:@apidevtools/swagger-parser@13.1.0";
export { default as parsePrometheusTextFormat } from "npm:parse-prometheus-text-format@1.1.1";
export { default as axe } from "npm:axe-core@4.14.1";
