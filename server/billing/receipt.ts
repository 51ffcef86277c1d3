import type { Company, Invoice } from "../../db/schema.ts";

/**
 * The printable receipt of a paid invoice (issue 29 item 4): one self-contained HTML file (styles
 * inline, no script, nothing fetched), downloaded by /financeiro's 'Recibo' and printed from the
 * browser (or saved as PDF there). Every value is escaped: detail and names are user-given.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function ddmmyyyy(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

function money(value: number): string {
  const [whole, cents] = value.toFixed(2).split(".");
  return `R$ ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${cents}`;
}

const PAID_VIA: Record<string, string> = {
  manual: "confirmado pela administração",
  static: "Pix",
  asaas: "Pix (Asaas)",
};

export function receiptHtml(input: {
  invoice: Invoice;
  company: Pick<Company, "name" | "billingName" | "email">;
  issuer: string;
}): string {
  const { invoice, company, issuer } = input;
  const rows: [string, string][] = [
    ["Recibo nº", String(invoice.id)],
    ["Cliente", company.billingName || company.name],
    ["E-mail", company.email ?? ""],
    ["Referente a", invoice.detail],
    ["Vencimento", ddmmyyyy(invoice.dueDate)],
    ["Pago em", invoice.paidAt ? ddmmyyyy(invoice.paidAt) : ""],
    ["Forma de pagamento", PAID_VIA[invoice.paidVia ?? ""] ?? invoice.paidVia ?? ""],
    ["Valor", money(invoice.value)],
  ];
  const body = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join("\n");
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<title>Recibo ${invoice.id} - ${escapeHtml(issuer)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 640px; margin: 40px auto; color: #111; }
h1 { font-size: 22px; margin-bottom: 4px; }
table { width: 100%; border-collapse: collapse; margin-top: 24px; }
th, td { text-align: left; padding: 8px; border-bottom: 1px solid #ccc; }
th { width: 40%; font-weight: 600; }
p.statement { margin-top: 24px; }
</style>
</head>
<body>
<h1>Recibo de pagamento</h1>
<div>${escapeHtml(issuer)}</div>
<table>
${body}
</table>
<p class="statement">Recebemos de ${escapeHtml(company.billingName || company.name)} a quantia de ${
    escapeHtml(money(invoice.value))
  }, referente a ${escapeHtml(invoice.detail)}.</p>
</body>
</html>
`;
}
