/** The names a sandbox rule may use (outcomes, final statuses, errors), read from the server's own OpenAPI document. */
export interface RuleOptions {
  outcomes: string[];
  statuses: string[];
  errors: string[];
}

type Schema = { $ref?: string; enum?: string[]; properties?: Record<string, Schema>; items?: Schema; content?: Record<string, { schema?: Schema }> };

export async function loadRuleOptions(): Promise<RuleOptions> {
  const document = (await (await fetch('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    const name = schema?.$ref?.split('/').pop();
    return name ? resolve(document.components?.schemas?.[name]) : schema;
  };
  const body = resolve(document.paths['/sandbox/1/rules']?.put?.requestBody?.content?.['application/json']?.schema);
  const rule = resolve(resolve(body?.properties?.rules)?.items);
  const names = (field: string): string[] => resolve(rule?.properties?.[field])?.enum ?? [];
  return { outcomes: names('outcome'), statuses: names('status'), errors: names('error') };
}
