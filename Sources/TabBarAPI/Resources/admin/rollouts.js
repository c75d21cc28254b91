// The selected client's staged rollouts: where each stands, on which figures, and pausing, resuming or rolling one
// back (docs/rollouts.md).

import { clientPath, request } from './api.js';

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function percent(share) {
  return `${Math.round(share * 10000) / 100} %`;
}

const STATE_NAMES = { running: 'running', paused: 'paused', completed: 'completed', rolledBack: 'rolled back' };

/** getClient() names the client; onError(error); say(text, kind). */
export function createRollouts({ getClient, onError, say }) {
  const list = document.getElementById('rollouts');
  const empty = document.getElementById('rollouts-empty');
  let loading = 0;

  /** Loads and shows the client's staged rollouts (nothing for a client not published yet). */
  async function load() {
    const client = getClient();
    const mine = (loading += 1);
    if (!client) {
      clear('');
      return;
    }
    try {
      const { data } = await request('GET', clientPath(client, 'rollouts'));
      if (mine !== loading || client !== getClient()) return;
      render(client, data.rollouts);
    } catch (error) {
      if (mine !== loading) return;
      if (error.status === 404) clear('');
      else onError(error);
    }
  }

  function clear(text) {
    loading += 1;
    list.replaceChildren();
    empty.textContent = text;
  }

  function render(client, rollouts) {
    empty.textContent = rollouts.length ? '' : 'No staged rollout.';
    list.replaceChildren(...rollouts.map((rollout) => {
      const item = make('li', 'rollout-entry');
      item.dataset.tab = rollout.tab;
      item.dataset.state = rollout.state;
      const head = make('div', 'rollout-head');
      head.append(
        make('strong', '', rollout.tab),
        make('span', `state-badge state-${rollout.state}`, STATE_NAMES[rollout.state] ?? rollout.state));
      item.append(head);
      item.append(make(
        'p', 'rollout-stage',
        `stage ${rollout.stage + 1} of ${rollout.stages} · coverage ${percent(rollout.coverage)}`));
      const reports = rollout.opened + rollout.failed;
      item.append(make(
        'p', 'rollout-figures muted',
        `${reports} opens, ${rollout.failed} failed (${percent(rollout.failureRate)}; guard ` +
          `${percent(rollout.maxFailureRate)} over ${rollout.minOpens})`));
      if (rollout.reason) item.append(make('p', 'rollout-reason note', rollout.reason));
      const actions = make('div', 'rollout-actions');
      if (rollout.state === 'running') actions.append(button(client, rollout.tab, 'pause', 'Pause'));
      if (rollout.state === 'paused') actions.append(button(client, rollout.tab, 'resume', 'Resume'));
      if (rollout.state !== 'rolledBack') actions.append(button(client, rollout.tab, 'rollback', 'Roll back'));
      if (actions.childElementCount) item.append(actions);
      return item;
    }));
  }

  function button(client, tab, action, label) {
    const node = make('button', `secondary small rollout-${action}`, label);
    node.type = 'button';
    node.dataset.action = action;
    node.setAttribute('aria-label', `${label} the rollout of ${tab}`);
    node.addEventListener('click', async () => {
      node.disabled = true;
      try {
        const { data } = await request('POST', clientPath(client, 'rollouts', tab, action));
        say(`The rollout of ${tab} is ${STATE_NAMES[data.state] ?? data.state}.`, 'success');
      } catch (error) {
        onError(error);
      } finally {
        load();
      }
    });
    return node;
  }

  return { load, clear };
}
