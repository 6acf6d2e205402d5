import ModalKitBenchSupport
import XCTest

/// The order statistics modal-bench reports, checked against their definitions (nearest-rank
/// percentile, median of an even sample = mean of the two middle values).
final class StatisticsTests: XCTestCase {
    func testMedianOfOddSampleIsTheMiddleValue() {
        XCTAssertEqual(Statistics.median([5, 1, 3]), 3)
    }

    func testMedianOfEvenSampleIsTheMeanOfTheTwoMiddleValues() {
        XCTAssertEqual(Statistics.median([4, 1, 3, 2]), 2.5)
        XCTAssertEqual(Statistics.median((1...100).map(Double.init)), 50.5)
    }

    func testEmptySampleHasNoStatistics() {
        XCTAssertNil(Statistics.median([]))
        XCTAssertNil(Statistics.percentile(99, of: []))
        XCTAssertNil(Statistics.mean([]))
    }

    func testNearestRankPercentiles() {
        let hundred = (1...100).shuffled().map(Double.init)
        XCTAssertEqual(Statistics.percentile(99, of: hundred), 99)
        XCTAssertEqual(Statistics.percentile(100, of: hundred), 100)
        XCTAssertEqual(Statistics.percentile(50, of: hundred), 50)
        XCTAssertEqual(Statistics.percentile(1, of: hundred), 1)
        XCTAssertEqual(Statistics.percentile(0.5, of: hundred), 1)
        // 420 frames (10 runs of 42): ceil(0.99 × 420) = 416th smallest.
        let frames = (1...420).reversed().map(Double.init)
        XCTAssertEqual(Statistics.percentile(99, of: frames), 416)
    }

    func testP99OfFewerThanAHundredValuesIsTheMaximum() {
        XCTAssertEqual(Statistics.percentile(99, of: [3, 9, 1, 7]), 9)
    }

    func testPercentileOutsideRangeIsRejected() {
        XCTAssertNil(Statistics.percentile(0, of: [1, 2]))
        XCTAssertNil(Statistics.percentile(100.5, of: [1, 2]))
        XCTAssertNil(Statistics.percentile(.nan, of: [1, 2]))
    }

    func testMean() {
        XCTAssertEqual(Statistics.mean([1, 2, 3, 6]), 3)
    }
}

/// The launch benchmark's figures: min/median/max and the median of per-pair ratios.
final class PairedStatisticsTests: XCTestCase {
    func testSummary() {
        XCTAssertEqual(Statistics.summary([16.5, 14.0, 21.5, 15.0]),
                       Statistics.Summary(count: 4, min: 14.0, median: 15.75, max: 21.5))
        XCTAssertNil(Statistics.summary([]))
    }

    func testPairedRatiosKeepThePairing() {
        // Pair by pair: 10/5, 12/4, 30/10. The median of the ratios (2, 3, 3) is 3, while the
        // ratio of the medians would be 12/5 = 2.4: each pair shares its moment's load.
        let ratios = Statistics.pairedRatios([10, 12, 30], [5, 4, 10])
        XCTAssertEqual(ratios, [2, 3, 3])
        XCTAssertEqual(Statistics.median(ratios), 3)
    }

    func testPairsWithAMissingOrZeroSideAreLeftOut() {
        XCTAssertEqual(Statistics.pairedRatios([1, nil, 3, 4], [2, 2, nil, 0]), [0.5])
        XCTAssertEqual(Statistics.pairedRatios([1, 2, 3], [1]), [1])
    }
}
