// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IIntentAccount} from "./interfaces/IIntentAccount.sol";
import {IIntentFactory} from "./interfaces/IIntentFactory.sol";
import {Intent, Recovery} from "./interfaces/IntentTypes.sol";
import {IntentAccount} from "./IntentAccount.sol";
import {IntentHash} from "./libraries/IntentHash.sol";

/// @title IntentFactory: deploys intent accounts at CREATE2 addresses that commit to their intent.
/// @notice The account for hash h is an OZ clone of `implementation` with immutable args abi.encodePacked(h)
/// and salt h. The factory creates the implementation itself, so a factory deployed at the same address on
/// every chain (CREATE2 deployer, fixed salt) gives the same implementation and account addresses everywhere.
/// Deploying is permissionless and harmless: every parameter is in the initcode.
contract IntentFactory is IIntentFactory {
    /// @inheritdoc IIntentFactory
    address public immutable implementation;

    constructor() {
        implementation = address(new IntentAccount());
    }

    /// @inheritdoc IIntentFactory
    function hashIntent(Intent calldata intent) public view returns (bytes32) {
        return IntentHash.hashIntent(intent, address(this));
    }

    /// @inheritdoc IIntentFactory
    function predict(bytes32 intentHash) public view returns (address) {
        return Clones.predictDeterministicAddressWithImmutableArgs(
            implementation, abi.encodePacked(intentHash), intentHash
        );
    }

    /// @inheritdoc IIntentFactory
    function deploy(Intent calldata intent) public returns (address account) {
        bytes32 intentHash = hashIntent(intent);
        account = predict(intentHash);
        if (account.code.length == 0) {
            Clones.cloneDeterministicWithImmutableArgs(implementation, abi.encodePacked(intentHash), intentHash);
            emit IntentDeployed(intentHash, account);
        }
    }

    /// @inheritdoc IIntentFactory
    function deployIfNeededAndExecute(Intent calldata intent, bytes calldata authData)
        external
        returns (address account)
    {
        account = deploy(intent);
        IIntentAccount(account).executeFor(msg.sender, intent, authData);
    }

    /// @inheritdoc IIntentFactory
    function deployIfNeededAndRefund(Intent calldata intent, address[] calldata tokens, bool native)
        external
        returns (address account)
    {
        account = deploy(intent);
        IIntentAccount(account).refundFor(msg.sender, intent, tokens, native);
    }

    /// @inheritdoc IIntentFactory
    function deployIfNeededAndRecover(
        Intent calldata intent,
        Recovery calldata recovery,
        uint256 fee,
        bytes calldata signature
    ) external returns (address account) {
        account = deploy(intent);
        IIntentAccount(account).recoverFor(msg.sender, intent, recovery, fee, signature);
    }
}
