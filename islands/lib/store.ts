import { useSyncExternalStore } from "react";

/**
 * A value shared by components outside React's tree (the signed-in user, the toasts, the ticket
 * on screen): set `.value`, and components that read it with `useStore` render again. What
 * @preact/signals did here for three values, in React's own useSyncExternalStore instead of 7 KB
 * of signals runtime on every page's first load (issue 33).
 */
export class Store<T> {
  #value: T;
  #listeners = new Set<() => void>();

  constructor(value: T) {
    this.#value = value;
  }

  get value(): T {
    return this.#value;
  }

  set value(value: T) {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const listener of [...this.#listeners]) listener();
  }

  subscribe = (listener: () => void): () => void => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  get = (): T => this.#value;
}

export function store<T>(value: T): Store<T> {
  return new Store(value);
}

/** The store's value; the component renders again when it changes. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
