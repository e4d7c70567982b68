// @vitest-environment jsdom
// Issue 17 form defects on the card form: Country is marked required and outlined with its message like the other
// required fields, and an unticked terms box gets its own message at the box (not only the form's 'Please fill all
// the fields'); ticking it clears that message.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { CARD_INCOMPLETE_MESSAGE, cardSetupMachine } from '../../../src/machines/card-setup/card-setup.machine';
import { CardForm, TERMS_REQUIRED_MESSAGE } from '../../../src/views/billing-card/card-form';
import { LocalCardFields } from '../../../src/views/billing-card/local-card-fields';
import { installDomStubs } from '../organization/dom-stubs';

installDomStubs();

describe('card form, required fields', () => {
  it('marks Country and the terms box at the field when the form is sent empty, and clears each once it is filled', async () => {
    const actor = createActor(cardSetupMachine, { input: { billingAccountId: 1 } }).start();
    const user = userEvent.setup();
    render(<CardForm actor={actor} renderDetails={(props) => <LocalCardFields {...props} />} />);

    const country = screen.getByRole('combobox', { name: 'Country' });
    expect(country.getAttribute('aria-required')).toBe('true');
    expect(country.closest('[data-scope="combobox"][data-part="root"]')!.querySelector('label')!.textContent).toBe('Country*');
    expect(country.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(TERMS_REQUIRED_MESSAGE)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save card' }));

    expect(screen.getByText(CARD_INCOMPLETE_MESSAGE)).toBeTruthy();
    const countryError = screen.getByText('The country is required.');
    expect(country.getAttribute('aria-invalid')).toBe('true');
    expect(country.getAttribute('aria-describedby')).toBe(countryError.id);
    const termsError = screen.getByText(TERMS_REQUIRED_MESSAGE);
    const terms = screen.getByRole('checkbox');
    expect(terms.getAttribute('aria-describedby')).toBe(termsError.id);
    expect(terms.closest('[data-part="root"]')!.hasAttribute('data-invalid')).toBe(true);

    await user.click(terms);
    expect(screen.queryByText(TERMS_REQUIRED_MESSAGE)).toBeNull();
    await user.click(country);
    await user.click(screen.getByRole('option', { name: 'Germany' }));
    expect(screen.queryByText('The country is required.')).toBeNull();
    expect(country.getAttribute('aria-invalid')).toBeNull();
    actor.stop();
  });
});
