// The instance's ingestion key on Data Ingestion. The server keeps only its hash (docs/hepic.md, "Keys"), so the page
// shows the hint (first and last characters) and, for the instance's admins, 'Rotate token': a new key shown once
// here with its copy button; the old one stops working at once. The key itself was shown once at enable.
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { css } from 'styled-system/css';
import { SHOWN_ONCE_MESSAGE } from '../../../../contract/hepic';
import type { HepicIntentResult } from '../../../services/hepic-intents';
import { useCurrentUser } from '../../../app/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ReadOnlyCopy } from './hepic-read-only-copy';
import { useHepicIntent, useHepicUsers } from './use-hepic';

const ADMIN_GROUPS = new Set(['admin', 'superadmin']);
export const ROTATE_KEY_QUESTION =
  'A new token replaces the current one. Capture agents that still send the current token are refused at once: update them with the new one.';

/** The Token field and the rotation; `onRevealed` hands the new key to the page's agent examples. */
export function HepicIngestKey({ projectId, hint, onRevealed }: { projectId: number; hint: string | null; onRevealed: (key: string | null) => void }) {
  const currentUser = useCurrentUser();
  const users = useHepicUsers(projectId);
  const me = users.data?.find((u) => u.userId === currentUser.id);
  const isAdmin = Boolean(me && ADMIN_GROUPS.has(me.group));
  const [asking, setAsking] = useState(false);
  const rotate = useHepicIntent(projectId);
  const { projectSlug } = useParams();
  const revealed = rotate.state === 'idle' && rotate.data?.ok && rotate.data.intent === 'ROTATE_HEPIC_KEY' ? (rotate.data.token ?? null) : null;
  const busy = rotate.state !== 'idle';
  const failed = rotate.state === 'idle' && rotate.data && !rotate.data.ok && rotate.data.intent === 'ROTATE_HEPIC_KEY' ? rotate.data : null;
  // The examples below carry the new key while the page stays open.
  useEffect(() => {
    if (revealed) onRevealed(revealed);
  }, [revealed, onRevealed]);

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {revealed ? (
        <>
          <ReadOnlyCopy label="New token" value={revealed} />
          <Alert status="warning">{SHOWN_ONCE_MESSAGE}</Alert>
        </>
      ) : (
        <>
          <ReadOnlyCopy label="Token" value={hint ?? ''} />
          <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
            Only the first and last characters are shown: the token was shown once, when Hepic was enabled.{' '}
            {isAdmin ? 'If it is lost, rotate it to get a new one.' : 'If it is lost, a hepic admin can rotate it.'}
          </p>
        </>
      )}
      {failed && <RotateKeyFailure result={failed} />}
      {isAdmin && (
        <div>
          <Button size="sm" variant="outline" loading={busy} onClick={() => setAsking(true)}>
            Rotate token
          </Button>
        </div>
      )}
      <Dialog
        open={asking}
        onOpenChange={(open) => !open && setAsking(false)}
        role="alertdialog"
        title="Rotate the ingestion token"
        description={ROTATE_KEY_QUESTION}
        footer={
          <>
            <Button variant="outline" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                setAsking(false);
                onRevealed(null);
                rotate.submit({ intent: 'ROTATE_HEPIC_KEY', projectId: String(projectId) }, { method: 'post', action: `/${projectSlug}/stack/hepic` });
              }}
            >
              Rotate token
            </Button>
          </>
        }
      >
        {null}
      </Dialog>
    </div>
  );
}


/** A refused or failed rotation: the server's message; the current token stays valid, as nothing was changed. */
export function RotateKeyFailure({ result }: { result: Extract<HepicIntentResult, { ok: false }> }) {
  return (
    <Alert status="error" title={result.error ?? 'The token could not be rotated.'}>
      {result.description ?? 'The current token is unchanged and still works.'}
    </Alert>
  );
}
