import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import * as Popover from "radix-ui/popover";
import { HEX_COLOR_PATTERN, QUEUE_COLORS } from "../../contract/palette.ts";
import { icon } from "../lib/ui/icon.tsx";

const Check = icon("check");
const ChevronDown = icon("chevron-down");
const Palette = icon("palette");

/**
 * The queue colour field (seeds/001 sections 2 and 9): a popover with the 50 preset colours and a
 * custom hex. Colours other queues already use are marked and cannot be picked from the grid
 * (the server refuses them with ERR_QUEUE_COLOR_ALREADY_EXISTS anyway).
 */
export function ColorPicker(
  { value, onChange, used, label, error }: {
    value: string;
    onChange: (color: string) => void;
    /** Upper-case colour -> name of the queue that uses it. */
    used: ReadonlyMap<string, string>;
    label: string;
    error?: string | null;
  },
) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState("");
  const id = useId();
  const current = value.toUpperCase();
  const valid = HEX_COLOR_PATTERN.test(value);

  const choose = (color: string) => {
    onChange(color.toUpperCase());
    setOpen(false);
  };

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setCustom(value);
        }}
      >
        <Popover.Trigger asChild>
          <button
            id={id}
            type="button"
            className="input color-trigger"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            data-testid="color-trigger"
          >
            <span
              className="color-swatch"
              style={valid ? { background: value } : undefined}
              data-empty={!valid || undefined}
              aria-hidden="true"
            />
            <span className="color-value">{value || t("queues.color.choose")}</span>
            <ChevronDown size={16} aria-hidden="true" />
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            className="popover-content color-popover"
            align="start"
            sideOffset={6}
            aria-label={label}
          >
            <div className="color-grid" role="group" aria-label={t("queues.color.palette")}>
              {QUEUE_COLORS.map((color) => {
                const owner = used.get(color.toUpperCase());
                const selected = color.toUpperCase() === current;
                const name = owner ? t("queues.color.usedBy", { color, name: owner }) : color;
                return (
                  <button
                    key={color}
                    type="button"
                    className="color-cell"
                    style={{ background: color }}
                    aria-label={name}
                    title={name}
                    aria-pressed={selected}
                    disabled={!!owner && !selected}
                    data-color={color}
                    onClick={() => choose(color)}
                  >
                    {selected ? <Check size={14} aria-hidden="true" /> : null}
                  </button>
                );
              })}
            </div>
            <form
              className="color-custom"
              onSubmit={(e) => {
                e.preventDefault();
                e.stopPropagation();
                if (HEX_COLOR_PATTERN.test(custom.trim())) choose(custom.trim());
              }}
            >
              <label className="color-native" title={t("queues.color.custom")}>
                <Palette size={16} aria-hidden="true" />
                <input
                  type="color"
                  aria-label={t("queues.color.custom")}
                  value={/^#[0-9a-fA-F]{6}$/.test(custom) ? custom : "#000000"}
                  onChange={(e) => setCustom(e.target.value.toUpperCase())}
                />
              </label>
              <input
                className="input"
                aria-label={t("queues.color.hex")}
                placeholder="#RRGGBB"
                maxLength={9}
                value={custom}
                onChange={(e) => setCustom(e.target.value)}
                data-testid="color-custom"
              />
              <button
                type="submit"
                className="btn btn-secondary"
                disabled={!HEX_COLOR_PATTERN.test(custom.trim())}
              >
                {t("queues.color.use")}
              </button>
            </form>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {error ? <span id={`${id}-error`} className="field-error">{error}</span> : null}
    </div>
  );
}
