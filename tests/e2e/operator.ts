/**
 * The operator credential of the e2e servers (docs/SECURITY.md "Operator routes"):
 * playwright.config.ts sets OPERATOR_TOKEN once in the runner and passes it to every test server;
 * each call to a state-changing /api/dev route sends it in the `x-operator-token` header.
 */
export function operatorHeaders(): Record<string, string> {
  const token = process.env.OPERATOR_TOKEN;
  if (!token) throw new Error('OPERATOR_TOKEN is not set: playwright.config.ts sets it for the test servers');
  return { 'x-operator-token': token };
}
