import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { css } from 'styled-system/css';
import { MessageResponse } from '../../../contract/common';
import { useCurrentUser } from '../../app/auth-context';
import { Button, buttonStyles } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { http } from '../../services/http';
import { toast } from '../../services/toast-store';

/** /verify: the account's email is not verified yet (spec 000 section 2, Verify). */
export function VerifyView() {
  const user = useCurrentUser();
  const resend = useMutation({
    mutationFn: () => http.post('users/resend-verification', MessageResponse),
    onSuccess: (response) => toast.success(response.message),
  });
  return (
    <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '4', bg: 'shell.canvas' })}>
      <Card
        className={css({ maxW: 'md', w: 'full' })}
        title="Your account is not yet verified"
        description={`We sent a verification link to ${user.email || 'your email address'}. Please check your inbox and follow the link, then sign in again.`}
        footer={
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            <Button loading={resend.isPending} onClick={() => resend.mutate()}>
              Re-send verification email
            </Button>
            {/* A full page load, not a client-side route change: the in-memory token still says unverified until
                it expires, so only signing in again (keycloak-js's check-sso on load) picks up the verified address. */}
            <Link to="/login" reloadDocument className={buttonStyles({ variant: 'outline', size: 'md' })}>
              Login
            </Link>
          </div>
        }
      />
    </main>
  );
}
