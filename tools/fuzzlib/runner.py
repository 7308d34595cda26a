"""Runs batches of cases in worker subprocesses and watches them.

Each batch runs in one worker process (tools/fuzzlib/worker.py) for speed; the worker announces every
case before running it, so when it dies (a signal, a sanitizer abort) or stops answering (a hang, after
`timeout` seconds) the case in progress is the one blamed, and the rest of the batch continues in a fresh
worker. Sanitizer reports (AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer) are found in the
worker's stderr and attributed by the case markers it writes there.
"""
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'worker.py')
SANITIZER_MARKS = ('AddressSanitizer', 'LeakSanitizer', 'runtime error:', 'UndefinedBehaviorSanitizer')


def sanitizer_report(text):
    return any(m in text for m in SANITIZER_MARKS)


def describe_exit(code):
    if code is None:
        return 'still running'
    if code < 0:
        try:
            return 'killed by %s' % signal.Signals(-code).name
        except ValueError:
            return 'killed by signal %d' % -code
    return 'exit status %d' % code


def _pump(stream, tag, q):
    for line in stream:
        q.put((tag, line.rstrip('\n')))
    q.put((tag, None))


def _run_worker(command, env, items, timeout):
    """One worker over `items` ([index, code]); returns (results, blamed, stderr_lines, how_it_ended)."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(items, f)
        path = f.name
    proc = subprocess.Popen(command + [WORKER, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, text=True, errors='replace')
    q = queue.Queue()
    threads = [threading.Thread(target=_pump, args=(proc.stdout, 'out', q), daemon=True),
               threading.Thread(target=_pump, args=(proc.stderr, 'err', q), daemon=True)]
    for t in threads:
        t.start()
    results, err_lines, current, ended, open_streams = {}, [], None, None, 2
    while open_streams:
        try:
            tag, line = q.get(timeout=timeout)
        except queue.Empty:
            proc.kill()
            ended = 'hang: no answer for %ds' % timeout
            break
        if line is None:
            open_streams -= 1
            continue
        if tag == 'err':
            err_lines.append(line)
        elif line.startswith('START '):
            current = int(line.split()[1])
        elif line.startswith('RESULT '):
            _, index, payload = line.split(' ', 2)
            results[int(index)] = json.loads(payload)
            current = None
    proc.wait()
    for t in threads:
        t.join(timeout=5)
    os.unlink(path)
    if ended is None and proc.returncode != 0:
        ended = describe_exit(proc.returncode)
    return results, current, err_lines, ended


def _stderr_by_case(lines):
    by_case, current = {}, None
    for line in lines:
        if line.startswith('@@start '):
            current = int(line.split()[1])
            continue
        by_case.setdefault(current, []).append(line)
    return by_case


def run_batch(command, env, items, timeout):
    """Maps each index of `items` to ('result', description) or (failure kind, detail)."""
    outcome, pending, stalls = {}, list(items), 0
    while pending:
        results, blamed, err_lines, ended = _run_worker(command, env, pending, timeout)
        for index, desc in results.items():
            outcome[index] = ('result', desc)
        by_case = _stderr_by_case(err_lines)
        for index, lines in by_case.items():
            text = '\n'.join(lines)
            if index is not None and sanitizer_report(text):
                outcome[index] = ('sanitizer', _excerpt(text))
        if ended:
            if blamed is None and not results:
                stalls += 1  # the worker died before its first case: do not loop forever
                blamed = pending[0][0]
                if stalls > 1:
                    for index, _ in pending:
                        why = 'worker could not start: %s\n%s' % (ended, _excerpt('\n'.join(err_lines)))
                        outcome.setdefault(index, ('error', why))
                    break
            if blamed is not None:
                kind = 'hang' if ended.startswith('hang') else 'crash'
                text = '\n'.join(by_case.get(blamed, []))
                if sanitizer_report(text):
                    kind = 'sanitizer'
                outcome[blamed] = (kind, '%s\n%s' % (ended, _excerpt(text)))
        pending = [item for item in pending if item[0] not in outcome]
        if not ended:
            for index, _ in pending:  # a worker that exits cleanly has answered everything
                outcome[index] = ('error', 'the worker finished without answering')
            break
    return outcome


def run_program(command, env, code, timeout):
    """Runs `code` in its own process; (returncode or failure text, stdout, stderr)."""
    try:
        out = subprocess.run(command + ['-c', code], env=env, capture_output=True, text=True, timeout=timeout,
                             errors='replace')
    except subprocess.TimeoutExpired as e:
        return 'hang: no answer for %ds' % timeout, e.stdout or '', e.stderr or ''
    return out.returncode, out.stdout, out.stderr


def _excerpt(text, limit=3000):
    return text if len(text) <= limit else '...\n' + text[-limit:]
