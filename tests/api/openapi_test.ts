import assert from "node:assert/strict";
import { SwaggerParser } from "../helpers/packages.ts";
import { withApp } from "../helpers/app.ts";

/** Hono's `/tags/:id{[0-9]+}` is OpenAPI's `/tags/{id}`. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/^\/api/, "").replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}") || "/";
}

Deno.test("openapi - /api/openapi.json is a valid OpenAPI 3.1 document", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/api/openapi.json");
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    // Validates against the OpenAPI 3.1 schema (throws with the first problem otherwise).
    await SwaggerParser.validate(structuredClone(doc));
    // The schemas are the routes' own: the tag form's limits, the send API's body.
    const tagBody = doc.paths["/tags"].post.requestBody.content["application/json"].schema;
    assert.deepEqual([tagBody.properties.name.minLength, tagBody.properties.name.maxLength], [
      3,
      60,
    ]);
    const send = doc.paths["/messages/send"].post;
    assert.deepEqual(send.security, [{ connectionToken: [] }]);
    assert.ok(send.requestBody.content["application/json"].schema.properties.number);
    assert.ok(send.requestBody.content["multipart/form-data"]);
  }));

Deno.test("openapi - every /api route of the app is in the document", () =>
  withApp(async (t) => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    const missing: string[] = [];
    let routes = 0;
    for (const route of t.app.routes) {
      if (route.method === "ALL" || !route.path.startsWith("/api/")) continue;
      if (route.path === "/api/openapi.json") continue;
      routes++;
      const operation = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      if (!operation) missing.push(`${route.method} ${route.path}`);
    }
    assert.ok(routes > 100, `only ${routes} routes found`);
    assert.deepEqual(missing, [], "routes without an entry in the document");
  }));

Deno.test("openapi - /api-docs serves the Swagger UI page and its files from our own server", () =>
  withApp(async (t) => {
    const page = await t.request("GET", "/api-docs");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /src="\/api-docs\/swagger-ui-bundle\.js"/);
    assert.doesNotMatch(html, /https?:\/\//, "no outside address");
    // Started by a file of ours: pages run no inline script (Content-Security-Policy).
    assert.match(html, /src="\/api-docs\/init\.js"/);
    const init = await t.request("GET", "/api-docs/init.js");
    assert.match(await init.text(), /url: "\/api\/openapi\.json"/);
    const bundle = await t.request("GET", "/api-docs/swagger-ui-bundle.js");
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get("content-type") ?? "", /javascript/);
    assert.match(await bundle.text(), /SwaggerUIBundle/);
    for (const path of ["/api-docs/package.json", "/api-docs/..%2F..%2Fdeno.json"]) {
      const res = await t.request("GET", path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  }));

Deno.test("openapi - operations are grouped by resource; /api-docs leads back to the app", () =>
  withApp(async (t) => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    const tagsOf = (path: string, method: string) => doc.paths[path][method].tags;
    assert.deepEqual(tagsOf("/tags", "post"), ["tags"]);
    assert.deepEqual(tagsOf("/tags/{id}", "put"), ["tags"]);
    assert.deepEqual(tagsOf("/messages/send", "post"), ["messages"]);
    const untagged = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { tags?: string[] }>)
        .filter(([, op]) => !op.tags?.length).map(([method]) => `${method} ${path}`)
    );
    assert.deepEqual(untagged, []);
    const html = await (await t.request("GET", "/api-docs")).text();
    assert.match(
      html,
      /<a href="\/" data-testid="api-docs-back"[^>]*>&larr; Voltar ao Balcão<\/a>/,
    );
    const english = await t.request("GET", "/api-docs", { headers: { cookie: "lang=en" } });
    assert.match(await english.text(), /Back to Balcão/);
  }));
