// References inside create/update bodies (templateId, networkVolumeId(s), containerRegistryAuthId): each
// must name a record of the caller's own account (ResourceStore.referenced); a missing one is refused
// naming the field, with the same text whether the id never existed or belongs to another account.
import { badRequest, type Failure } from './results.js';

type Body = Record<string, unknown>;
type ReferencedKind = 'templates' | 'networkVolumes' | 'registryAuths';

/** The first reference of `body` that `exists` does not find, as a 400 marked `unknownReference`. */
export function missingReference(body: Body, exists: (kind: ReferencedKind, id: string) => boolean): Failure | undefined {
  const refused = firstMissing(body, exists);
  return refused && { ...refused, unknownReference: true };
}

function firstMissing(body: Body, exists: (kind: ReferencedKind, id: string) => boolean): Failure | undefined {
  const templateId = body['templateId'];
  if (typeof templateId === 'string' && !exists('templates', templateId)) return badRequest(`template ${templateId} does not exist`, '/body/templateId');
  const volumeId = body['networkVolumeId'];
  if (typeof volumeId === 'string' && !exists('networkVolumes', volumeId)) return badRequest(`network volume ${volumeId} does not exist`, '/body/networkVolumeId');
  const volumeIds = body['networkVolumeIds'];
  if (Array.isArray(volumeIds)) {
    for (const [i, v] of volumeIds.entries()) if (!exists('networkVolumes', String(v))) return badRequest(`network volume ${String(v)} does not exist`, `/body/networkVolumeIds/${i}`);
  }
  const authId = body['containerRegistryAuthId'];
  if (typeof authId === 'string' && authId !== '' && !exists('registryAuths', authId)) return badRequest(`container registry auth ${authId} does not exist`, '/body/containerRegistryAuthId');
  return undefined;
}
