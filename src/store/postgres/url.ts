/**
 * A PostgreSQL URL as svc prints it (the start banner, errors): without its password. It
 * imports nothing, so the CLI can print one without loading the driver.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
