// Number formatting shared by every view.

// formatTokens writes a token count compactly: 950, 12.3k, 1.25M.
export function formatTokens(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 10_000) return (n / 1000).toFixed(2).replace(/\.?0+$/, '') + 'k';
  if (a < 1_000_000) return (n / 1000).toFixed(1).replace(/\.0$/, '') + 'k';
  return (n / 1_000_000).toFixed(2).replace(/\.?0+$/, '') + 'M';
}
