const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => escapes[ch] ?? ch);
}

export function pageStart(title: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(title)}</title>\n` +
    '<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}h1{font-size:1.4em}h1,.ipfs-hash{overflow-wrap:anywhere}td:last-child{white-space:nowrap}' +
    'td{padding:.2em 1em .2em 0}.ipfs-hash{font-family:monospace;color:#666}pre{white-space:pre-wrap}</style>\n' +
    '</head>\n<body>\n'
  );
}

export const pageEnd = '</body>\n</html>\n';

export function formatBytes(size: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit] ?? ''}`;
}
