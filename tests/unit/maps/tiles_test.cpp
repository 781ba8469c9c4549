// Web Mercator tile arithmetic, exactly against tiles worked out with the OpenStreetMap wiki's
// slippy-map formulas (https://wiki.openstreetmap.org/wiki/Slippy_map_tilenames).
#include "../../../plugins/maps/tiles.hpp"

#include <gtest/gtest.h>

using namespace maps;

TEST(Tiles, ZoomZeroIsOneTile) {
    const Tile t = tile_at(51.5074, -0.1278, 0);
    EXPECT_EQ(t.x, 0);
    EXPECT_EQ(t.y, 0);
    EXPECT_EQ(tiles_across(0), 1);
    EXPECT_EQ(tiles_across(20), 1048576);
}

TEST(Tiles, KnownPoints) {
    const Tile london = tile_at(51.5074, -0.1278, 10);
    EXPECT_EQ(london.x, 511);
    EXPECT_EQ(london.y, 340);
    const Tile edinburgh = tile_at(55.9533, -3.1883, 12);
    EXPECT_EQ(edinburgh.x, 2011);
    EXPECT_EQ(edinburgh.y, 1276);
    const Tile shetland = tile_at(60.15, -1.14, 7);
    EXPECT_EQ(shetland.x, 63);
    EXPECT_EQ(shetland.y, 37);
    // Greenwich at zoom 1: longitude 0 starts the eastern column, the equator the southern row.
    const Tile origin = tile_at(0, 0, 1);
    EXPECT_EQ(origin.x, 1);
    EXPECT_EQ(origin.y, 1);
}

TEST(Tiles, EdgesAndPolesClamp) {
    EXPECT_EQ(tile_at(89.9, 180, 3).x, 7);
    EXPECT_EQ(tile_at(89.9, 180, 3).y, 0);
    EXPECT_EQ(tile_at(-89.9, -180, 3).x, 0);
    EXPECT_EQ(tile_at(-89.9, -180, 3).y, 7);
}

TEST(Tiles, Bounds) {
    const Box world = bounds({1, 0, 0});
    EXPECT_DOUBLE_EQ(world.west, -180.0);
    EXPECT_DOUBLE_EQ(world.east, 0.0);
    EXPECT_DOUBLE_EQ(world.north, 85.0511287798066);
    EXPECT_DOUBLE_EQ(world.south, 0.0);
    const Box london = bounds({10, 511, 340});
    EXPECT_DOUBLE_EQ(london.west, -0.3515625);
    EXPECT_DOUBLE_EQ(london.east, 0.0);
    EXPECT_NEAR(london.north, 51.6180165487737, 1e-12);
    EXPECT_NEAR(london.south, 51.39920565355377, 1e-12);
    const Box fair_isle = bounds({7, 63, 40});
    EXPECT_NEAR(fair_isle.north, 55.77657301866769, 1e-12);
    EXPECT_NEAR(fair_isle.south, 54.1624339680678, 1e-12);
    EXPECT_DOUBLE_EQ(fair_isle.west, -2.8125);
}

TEST(Tiles, BritainsTiles) {
    EXPECT_TRUE(overlaps(bounds({10, 511, 340}), kBritain));
    EXPECT_TRUE(overlaps(bounds({0, 0, 0}), kBritain));
    EXPECT_FALSE(overlaps(bounds({10, 0, 0}), kBritain));
    EXPECT_FALSE(overlaps(bounds({7, 66, 43}), kBritain));  // Belgium
    // Britain's corners at zoom 7: 60/43 in the south-west, 64/36 in the north-east.
    EXPECT_EQ(tile_at(49.79, -8.82, 7).x, 60);
    EXPECT_EQ(tile_at(49.79, -8.82, 7).y, 43);
    EXPECT_EQ(tile_at(60.94, 1.92, 7).x, 64);
    EXPECT_EQ(tile_at(60.94, 1.92, 7).y, 36);
    // A tile touching the box only along an edge is not in it: 7/65 starts at 2.8125 east.
    EXPECT_FALSE(overlaps(bounds({7, 65, 40}), kBritain));
    EXPECT_FALSE(overlaps({1, 0, 2, 1}, {2, 1, 3, 2}));  // corners touching
}

TEST(Tiles, Covering) {
    const Range all = covering(kBritain, 7);
    EXPECT_EQ(all.x_min, 60);
    EXPECT_EQ(all.x_max, 64);
    EXPECT_EQ(all.y_min, 36);
    EXPECT_EQ(all.y_max, 43);
    EXPECT_EQ(all.count(), 40);
    // A box exactly one tile does not pull in its neighbours.
    const Box one = bounds({10, 511, 340});
    const Range r = covering(one, 10);
    EXPECT_EQ(r.x_min, 511);
    EXPECT_EQ(r.x_max, 511);
    EXPECT_EQ(r.y_min, 340);
    EXPECT_EQ(r.y_max, 340);
    EXPECT_EQ(r.count(), 1);
    // The whole world at zoom 2.
    EXPECT_EQ(covering({85, -85, 180, -180}, 2).count(), 16);
    const Box clipped = clip({70, 40, 10, -20}, kBritain);
    EXPECT_DOUBLE_EQ(clipped.north, 60.94);
    EXPECT_DOUBLE_EQ(clipped.west, -8.82);
}
