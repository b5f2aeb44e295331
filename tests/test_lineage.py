"""Stable group ids across full runs and what a run did to each group (dedup.runs.lineage), on plain groups."""

from dedup.index.groups import Group
from dedup.runs.lineage import counts, describe, keep_ids
from dedup.store import GroupChange


def grp(gid, keys, run=1, merged_from=()):
    return Group(gid, [str(k) for k in keys], [0] * len(keys), [], run, run, list(merged_from))


def new(*key_lists):
    return [grp(0, keys, None) for keys in key_lists]


def by_keys(groups):
    return {tuple(g.keys): g.id for g in groups}


def test_unchanged_and_grown_groups_keep_their_ids_and_new_ones_get_ids_above_every_id_used():
    old = [grp(5, [1, 2, 3]), grp(9, [4, 5])]
    groups = new([10, 11], [1, 2, 3, 7], [4, 5])
    keep_ids(groups, old, next_id=13, run_id=2)
    assert by_keys(groups) == {("1", "2", "3", "7"): 5, ("4", "5"): 9, ("10", "11"): 13}
    g5, g9 = groups[0], groups[1]
    assert (g5.created_run, g5.updated_run) == (1, 2)  # grew in run 2
    assert (g9.created_run, g9.updated_run) == (1, 1)  # untouched
    changes, left = describe({g.id: g for g in old}, groups)
    assert [(c.group, c.kinds, c.added) for c in changes] == [(5, ["grown"], ["7"]), (13, ["new"], ["10", "11"])]
    assert left == 0


def test_a_merge_keeps_the_id_of_the_larger_overlap_and_records_the_other_as_merged_into_it():
    old = [grp(5, [1, 2]), grp(9, [3, 4, 6])]
    groups = new([1, 2, 3, 4, 6])
    keep_ids(groups, old, next_id=10, run_id=2)
    assert groups[0].id == 9 and groups[0].merged_from == [5]
    changes, left = describe({g.id: g for g in old}, groups)
    assert changes == [GroupChange(5, ["gone"], 0, removed=["1", "2"], merged_into=9),
                       GroupChange(9, ["grown", "merged"], 5, merged_from=[5])]
    assert counts(changes, left) == {"new_groups": 0, "grown_groups": 1, "shrunk_groups": 0, "merged_groups": 1,
                                     "split_groups": 0, "dissolved_groups": 0, "rows_left_groups": 0}


def test_equal_overlaps_go_by_share_then_by_the_lower_old_id():
    # {3,4,5,6} overlaps 5 and 9 by two rows each; {1,2} is half of old 5, {3,4,5,6} all of old 9
    old = [grp(5, [1, 2, 3, 4]), grp(9, [5, 6])]
    groups = new([1, 2], [3, 4, 5, 6])
    keep_ids(groups, old, next_id=10, run_id=2)
    assert by_keys(groups) == {("1", "2"): 5, ("3", "4", "5", "6"): 9}
    # a true tie: the lower old id wins, whatever the order the groups come in
    for order in ([[1, 2, 3, 4]], [[3, 4, 1, 2]]):
        groups = new(*order)
        keep_ids(groups, [grp(8, [3, 4]), grp(7, [1, 2])], next_id=10, run_id=2)
        assert groups[0].id == 7 and groups[0].merged_from == [8]


def test_a_split_keeps_the_id_on_the_larger_part_and_the_other_part_says_where_it_came_from():
    old = [grp(5, [1, 2, 3, 4, 5])]
    groups = new([1, 2], [3, 4, 5])
    keep_ids(groups, old, next_id=6, run_id=2)
    assert by_keys(groups) == {("3", "4", "5"): 5, ("1", "2"): 6}
    changes, left = describe({5: old[0]}, groups)
    assert changes == [GroupChange(5, ["split"], 3, removed=["1", "2"], split_into=[6]),
                       GroupChange(6, ["new"], 2, split_from=5)]
    assert counts(changes, left)["split_groups"] == 1 and left == 0


def test_each_old_id_is_used_once_and_a_group_whose_rows_all_left_is_gone():
    old = [grp(5, [1, 2]), grp(6, [3, 4])]
    groups = new([1, 2, 9])  # 3 and 4 are in no group any more
    keep_ids(groups, old, next_id=7, run_id=3)
    assert [g.id for g in groups] == [5]
    changes, left = describe({g.id: g for g in old}, groups)
    assert changes[-1] == GroupChange(6, ["gone"], 0, removed=["3", "4"]) and left == 2
    assert counts(changes, left)["dissolved_groups"] == 1 and counts(changes, left)["merged_groups"] == 0


def test_a_group_that_only_lost_rows_has_shrunk():
    old = [grp(5, [1, 2, 3])]
    groups = new([1, 2])
    keep_ids(groups, old, next_id=6, run_id=2)
    changes, left = describe({5: old[0]}, groups)
    assert changes == [GroupChange(5, ["shrunk"], 2, removed=["3"])] and left == 1


def test_the_first_full_run_numbers_groups_from_1_by_their_lowest_key():
    groups = new([7, 8], [1, 2], [3, 4])
    keep_ids(groups, [], next_id=1, run_id=1)
    assert by_keys(groups) == {("1", "2"): 1, ("3", "4"): 2, ("7", "8"): 3}
    changes, _ = describe({}, groups)
    assert [c.kinds for c in changes] == [["new"]] * 3 and changes[0].added == ["1", "2"]
