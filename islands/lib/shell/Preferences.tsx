import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isLanguage, languageOf, LANGUAGES, switchLanguage } from "../i18n.ts";
import { currentTheme, followSystemTheme, setTheme, type Theme } from "../theme.ts";
import { toast } from "../toast.ts";
import { IconButton } from "../ui/Button.tsx";
import { Menu, MenuLabel, MenuRadioGroup, MenuRadioItem } from "../ui/Menu.tsx";
import { icon } from "../ui/icon.tsx";

const Languages = icon("languages");
const Moon = icon("moon");
const Sun = icon("sun");

/** Language and theme switches: in the top bar and on the public pages (login, signup). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = languageOf(i18n);
  const choose = (value: string) => {
    if (!isLanguage(value) || value === current) return;
    switchLanguage(i18n, value).catch((error) => toast.error(error));
  };
  return (
    <Menu
      label={t("shell.topbar.language")}
      trigger={
        <IconButton label={t("shell.topbar.language")} data-testid="language-menu">
          <Languages size={20} aria-hidden="true" />
        </IconButton>
      }
    >
      <MenuLabel>{t("shell.topbar.language")}</MenuLabel>
      <MenuRadioGroup value={current} onValueChange={choose}>
        {LANGUAGES.map((lng) => (
          <MenuRadioItem key={lng} value={lng}>
            <span data-lang={lng}>{t(`languages.${lng}`)}</span>
          </MenuRadioItem>
        ))}
      </MenuRadioGroup>
    </Menu>
  );
}

/** Dark/light switch (seeds/002 section 2.11): remembered as preferredTheme. */
export function ThemeToggle() {
  const { t } = useTranslation();
  // The theme is applied before paint by the head script; the icon follows after hydration.
  const [theme, setState] = useState<Theme | null>(null);
  useEffect(() => {
    setState(currentTheme());
    return followSystemTheme(setState);
  }, []);
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <IconButton
      label={t(next === "dark" ? "shell.topbar.darkMode" : "shell.topbar.lightMode")}
      data-testid="theme-toggle"
      onClick={() => {
        setTheme(next);
        setState(next);
      }}
    >
      {theme === "dark"
        ? <Sun size={20} aria-hidden="true" />
        : <Moon size={20} aria-hidden="true" />}
    </IconButton>
  );
}
