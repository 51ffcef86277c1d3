import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { IslandRoot } from "../../islands/lib/IslandRoot.tsx";
import { createI18n } from "../../islands/lib/i18n.ts";
import { Tabs } from "../../islands/lib/ui/Tabs.tsx";
import { Select } from "../../islands/lib/ui/Select.tsx";
import { Field } from "../../islands/lib/ui/Field.tsx";
import { Button } from "../../islands/lib/ui/Button.tsx";
import { richText } from "../../islands/lib/ui/rich_text.tsx";
import pt from "../../locales/pt.json" with { type: "json" };

const i18n = createI18n({ lng: "pt", resources: { pt } });

function render(node: React.ReactNode): string {
  return renderToString(<IslandRoot i18n={i18n} page={{ path: "/" }}>{node}</IslandRoot>);
}

Deno.test("ui - tabs render the selected panel with roles", () => {
  const html = render(
    <Tabs
      defaultValue="b"
      label="Filtro"
      tabs={[
        { value: "a", label: "Abertos", content: <p>lista A</p> },
        { value: "b", label: "Pendentes", content: <p>lista B</p> },
      ]}
    />,
  );
  assert.match(html, /role="tablist"/);
  assert.match(html, /aria-selected="true"[^>]*>Pendentes/);
  assert.match(html, /lista B/);
  assert.doesNotMatch(html, /lista A/);
});

Deno.test("ui - select renders a named combobox", () => {
  const html = render(
    <Select
      label="Fila"
      value="2"
      onValueChange={() => {}}
      options={[{ value: "1", label: "Vendas" }, { value: "2", label: "Suporte" }]}
    />,
  );
  assert.match(html, /role="combobox"/);
  assert.match(html, /aria-label="Fila"/);
});

Deno.test("ui - field ties its label, input and error together", () => {
  const html = render(<Field label="Nome" name="name" error="Obrigatório" />);
  const id = html.match(/<input id="([^"]+)"/)![1];
  assert.match(html, new RegExp(`<label for="${id}">Nome</label>`));
  assert.match(html, /aria-invalid="true"/);
  assert.match(html, new RegExp(`aria-describedby="${id}-message"`));
  assert.match(html, /Obrigatório/);
  assert.match(render(<Button loading>Salvar</Button>), /disabled="" aria-busy="true"/);
});

Deno.test("ui - rich text bolds <b> parts and keeps the rest as text", () => {
  const html = renderToString(<p>{richText("Olá <b>Ana</b>, <i>x</i> & <b>Acme</b>!")}</p>);
  assert.equal(
    html,
    "<p>Olá <strong>Ana</strong>, &lt;i&gt;x&lt;/i&gt; &amp; <strong>Acme</strong>!</p>",
  );
});
