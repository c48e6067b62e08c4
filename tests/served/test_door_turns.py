"""Who goes first at the door (companion/serve/turns.py), client by client: one device sending request after
request waits behind its own, never in front of another device's (issue 32 item 5). The door at work on
real sockets: tests/served/test_slow_readers.py."""

from __future__ import annotations

from companion.serve.turns import Threads, Turns, Unread


def test_a_free_thread_goes_to_the_waiting_device_with_the_fewest_requests_being_answered():
    threads = Threads(2)
    assert threads.take("flood", "f1") and threads.take("flood", "f2")
    assert not any(threads.take("flood", f"f{i}") for i in range(3, 9))  # every thread busy: they wait
    assert not threads.take("table", "tap")  # a tap from another device, after them
    assert threads.give_back("flood") == "tap"  # the table has none being answered: it goes first
    assert threads.give_back("flood") == "f3"
    assert threads.give_back("table") == "f4" and threads.busy == 2


def test_a_device_that_left_while_waiting_is_forgotten():
    threads = Threads(1)
    assert threads.take("a", "a1") and not threads.take("b", "b1") and not threads.take("c", "c1")
    threads.forget("b", "b1")
    assert threads.give_back("a") == "c1" and threads.give_back("c") is None and threads.busy == 0


def test_large_pages_are_drawn_a_few_at_once_one_per_device_and_the_others_wait_device_by_device():
    turns = Turns(2)
    assert turns.take("a", "a1")
    assert not turns.take("a", "a2") and not turns.take("a", "a3")  # one turn per device, though one is free
    assert turns.take("b", "b1")
    assert not turns.take("c", "c1")
    assert turns.give_back("a") == "a2"  # it came before c1; then a goes behind c
    assert turns.give_back("b") == "c1"  # b's turn goes to c, not to a's third
    assert turns.give_back("a") == "a3" and turns.give_back("c") is None
    assert turns.give_back("a") is None and turns.drawing == 0


def test_past_the_budget_a_device_with_unread_answers_waits_for_them_and_a_phone_never_does():
    """What the door holds for slow readers is bounded: past the budget, their device's next request waits
    until its answers go; a device that reads its answers (a phone at the table) is never held back."""
    unread = Unread(budget=1000)
    unread.add("slow", 600)
    assert not unread.holds("slow", "s1")  # under the budget: answered
    unread.add("slow", 600)
    assert unread.holds("slow", "s2") and unread.holds("slow", "s3")
    assert not unread.holds("phone", "tap")
    assert unread.gone("slow", 100) == []  # still past the budget
    assert unread.gone("slow", 600) == ["s2", "s3"] and unread.total == 500
    assert unread.gone("slow", 500) == [] and unread.total == 0
