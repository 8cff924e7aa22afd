/** One language's texts, built by scripts/i18nSplit.ts (a Vite plugin). */
declare module 'virtual:rf-i18n/*' {
  export const namespaces: readonly string[];
  const texts: Record<string, Readonly<Record<string, string>>>;
  export default texts;
}
