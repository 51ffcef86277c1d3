import { useEffect, useState } from "react";

/** A media query's current answer (false on the server and before hydration). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const list = globalThis.matchMedia?.(query);
    if (!list) return;
    setMatches(list.matches);
    const listener = () => setMatches(list.matches);
    list.addEventListener("change", listener);
    return () => list.removeEventListener("change", listener);
  }, [query]);
  return matches;
}
