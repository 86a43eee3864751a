// The template a pod was created from (or last had applied), whichever surface did it: `templateId` for
// an account's own templates (the store's in-use rule guards it), `catalogTemplateId` for RunPod's public
// catalog templates (never deletable, so nothing to guard). Every surface renders it (RESTV2-CROSS-004).
type Fields = Record<string, unknown>;

export function podTemplateId(pod: Fields): string | undefined {
  for (const key of ['templateId', 'catalogTemplateId']) {
    const id = pod[key];
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}
