import { ErrorMessageView } from './route-error-view';

export function NotFoundView() {
  return <ErrorMessageView message="Nothing to see here!" description="The page you are looking for does not exist or has moved." action={{ label: 'Go to the home page', to: '/' }} />;
}
