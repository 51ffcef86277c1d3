/** "5511987654321" -> "+55 11 98765-4321" (Brazilian numbers); others: "+" and the digits. */
export function formatPhone(value: string): string {
  const d = value.replace(/\D/g, "");
  if (d.startsWith("55") && (d.length === 12 || d.length === 13)) {
    const area = d.slice(2, 4);
    const local = d.slice(4);
    const split = local.length - 4;
    return `+55 ${area} ${local.slice(0, split)}-${local.slice(split)}`;
  }
  return d ? `+${d}` : "";
}
