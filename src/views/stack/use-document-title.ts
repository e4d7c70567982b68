import { useEffect } from 'react';

/** Sets the browser tab's title while the page is shown. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
