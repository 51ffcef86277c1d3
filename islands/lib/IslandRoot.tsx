import type { ReactNode } from "react";
import type { i18n as I18n } from "i18next";
import { I18nextProvider } from "react-i18next";
import { PageContext, type PageInfo } from "./page_context.ts";
import { Toaster } from "./ui/Toaster.tsx";

/**
 * Providers around every island, on the server (SSR) and in the browser (hydration) alike:
 * translations, page info and the toasts.
 */
export function IslandRoot(
  { i18n, page, children }: { i18n: I18n; page: PageInfo; children: ReactNode },
) {
  return (
    <I18nextProvider i18n={i18n}>
      <PageContext.Provider value={page}>
        <Toaster>{children}</Toaster>
      </PageContext.Provider>
    </I18nextProvider>
  );
}
