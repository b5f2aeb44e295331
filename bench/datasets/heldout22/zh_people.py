"""People and places for issue 22's Chinese held-out sets: names (common ones shared by many people),
phones, districts, roads and communities. Vocabulary written for this folder (not dedup/demo's, not
bench/datasets/labelled's); the typo table and phone shape come from bench/datasets/heldout/common."""

from __future__ import annotations

import random

# Surnames, the first ones much more frequent (as in the population).
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢"
_SURNAME_WEIGHTS = [max(1.0, 12.0 - i * 0.6) for i in range(len(SURNAMES))]
# Given names so common that different people share a whole name (张伟, 王芳 ...).
COMMON_GIVEN = ("伟", "芳", "娜", "敏", "静", "秀英", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛",
                "明", "超", "秀兰", "霞", "平", "刚", "桂英")
_GIVEN_CHARS = "建国华文德志明海春玉兰英红金永庆玲凤云飞鹏宏岩斌波宁浩晨思雨佳欣怡子轩梓涵俊豪博雅瑞琪"


def person_name(rng: random.Random) -> str:
    """A name; half the time a surname with one of the very common given names."""
    surname = rng.choices(SURNAMES, _SURNAME_WEIGHTS)[0]
    if rng.random() < 0.5:
        return surname + rng.choice(COMMON_GIVEN)
    return surname + "".join(rng.choice(_GIVEN_CHARS) for _ in range(rng.choice((1, 2, 2))))


DISTRICTS = ("东城区", "西湖区", "南岗区", "北塘区", "江岸区", "河西区", "青山区", "龙华区", "金水区", "天河区", "鼓楼区",
             "新城区", "高新区", "经开区", "滨湖区", "雁塔区", "碑林区", "红桥区", "沙坪坝区", "渝北区", "锦江区",
             "武侯区", "芙蓉区", "岳麓区", "开福区", "思明区", "湖里区", "秀英区", "城关区", "七里河区")
_ROAD_HEADS = ("解放", "人民", "建设", "和平", "长江", "黄河", "中山", "文化", "光明", "友谊", "胜利", "幸福", "朝阳",
               "民主", "新华", "工农", "团结", "振兴", "育才", "兴业", "科技", "滨江", "迎宾", "春风")
_ROAD_TAILS = ("路", "大道", "街", "东路", "西路", "南路", "北路", "中路")
_ESTATE_HEADS = ("锦绣", "翠湖", "阳光", "金色", "绿洲", "盛世", "怡景", "海棠", "紫荆", "丽水", "枫林", "康乐",
                 "天悦", "书香", "瑞祥", "恒大", "万科", "碧桂", "蓝湾", "星河", "御景", "嘉园", "馨港", "鹿鸣")
_ESTATE_TAILS = ("小区", "花园", "家园", "新村", "苑", "公寓", "名都", "华府", "雅居", "城")


def road(rng: random.Random) -> str:
    return rng.choice(_ROAD_HEADS) + rng.choice(_ROAD_TAILS)


def community(rng: random.Random) -> str:
    return rng.choice(_ESTATE_HEADS) + rng.choice(_ESTATE_TAILS)


def place(rng: random.Random) -> dict:
    """A district, road, community and building: where a complaint is about."""
    return {"district": rng.choice(DISTRICTS), "road": road(rng), "community": community(rng),
            "building": rng.randint(1, 36), "unit": rng.randint(1, 6)}


def month_day(rng: random.Random) -> str:
    return f"{rng.randint(1, 12)}月{rng.randint(1, 28)}日"
