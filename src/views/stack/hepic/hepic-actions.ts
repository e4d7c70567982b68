// The route action of /{projectSlug}/stack/hepic (spec 001 §7 Hepic): the page's forms post their intent here
// (react-router fetchers), it runs through the one intent dispatcher (services/hepic-intents.ts) and the page reads
// the answer from fetcher.data (and refetches its lists). Success and refusals are toasted here, field errors stay
// at their fields.
import { data, type ActionFunctionArgs } from 'react-router';
import { projectIdFromSlug } from '../../../../contract/projects';
import { runHepicIntent, type HepicIntentResult } from '../../../services/hepic-intents';
import { toast } from '../../../services/toast-store';

export async function hepicAction({ request, params }: ActionFunctionArgs) {
  const projectId = projectIdFromSlug(params.projectSlug ?? '') ?? 0;
  const form = await request.formData();
  const result: HepicIntentResult = await runHepicIntent(projectId, form);
  if (result.ok) {
    // The role prompt is shown by the confirm modal, not as a toast.
    if (!result.confirm) toast.success(result.message);
    return result;
  }
  if (result.status === 400 && result.error) toast.error(result.error, result.description);
  return data(result, { status: result.status });
}
